"""Readers producing datasets of encoded images with their labels (classification) or boxes
(detection) for tfgpuaug pipelines."""
from tfgpuaug.data.readers import IMAGE_EXTENSIONS, file_list, image_folder, shard_for
from tfgpuaug.data.tfrecord import detection_tfrecord, tfrecord

__all__ = ["IMAGE_EXTENSIONS", "detection_tfrecord", "file_list", "image_folder", "shard_for", "tfrecord"]
