"""Readers producing (encoded bytes, label) datasets for tfgpuaug pipelines."""
from tfgpuaug.data.readers import IMAGE_EXTENSIONS, file_list, image_folder

__all__ = ["IMAGE_EXTENSIONS", "file_list", "image_folder"]
